// require.js resolves the widget manager's own files (its Font Awesome 4
// fonts) relative to the page; point it at the book's local copy instead.
var vendor = document.currentScript.src.replace(/[^/]*$/, "") + "vendor/html-manager";
require.config({ paths: { "@jupyter-widgets": vendor, "@jupyter-widgets/html-manager/dist": vendor } });
