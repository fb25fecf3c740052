// The book theme's Font Awesome script replaces every <i class="fa ..."> icon
// with an <svg>. The widgets' Play button looks its <i> icon up again later,
// and that lookup fails once the icon is gone, which also stops the slider
// linked to it. "nest" keeps the <i> element and puts the <svg> inside it.
window.FontAwesomeConfig = { autoReplaceSvg: "nest" };
