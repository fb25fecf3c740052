// Stand-in front end that the static book gives any anywidget it does not ship
// itself: the page never evaluates widget code stored in its own data.
function render({ el }) {
  el.textContent = "This interactive widget needs a running Jupyter kernel (open the notebook to use it).";
}

export default { render };
