// The book theme's Font Awesome script replaces every <i class="fa ..."> icon
// with an <svg>. The widgets' Play button looks its <i> icon up again later,
// and that lookup fails once the icon is gone, which also stops the slider
// linked to it. "nest" keeps the <i> element and puts the <svg> inside it.
window.FontAwesomeConfig = { autoReplaceSvg: "nest" };

// In "nest" mode Font Awesome stops watching an <i> once it has drawn it, so
// when the Play button switches its icon's class (fa-play <-> fa-pause) the
// old picture stays. Redraw a widget icon whenever its class changes.
new MutationObserver(function (records) {
  records.forEach(function (record) {
    var icon = record.target;
    if (icon.tagName !== "I" || !/\bfa-/.test(icon.className) || !window.FontAwesome) return;
    if (!icon.closest(".jupyter-widgets")) return;
    icon.innerHTML = "";
    icon.removeAttribute("data-fa-i2svg");
    window.FontAwesome.dom.i2svg({ node: icon.parentNode });
  });
}).observe(document.documentElement, { subtree: true, attributes: true, attributeFilter: ["class"] });
