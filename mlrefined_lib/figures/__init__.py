"""The figures of the chapters: one module per chapter, named after its folder.

Drawing code that a reader need not read lives here, tested like the rest of
the library (axes, limits, labels and the data drawn are checked on the
returned figure), so that a chapter's visible code shows the idea and a short
call draws the picture. General-purpose plots (contours with a descent path,
cost histories, feature histograms, weight bars) stay in
:mod:`mlrefined_lib.plotting`; a figure that belongs to one chapter's story
lives in that chapter's module here, e.g.
``from mlrefined_lib.figures import validation as figures``.

Every function returns the matplotlib ``Figure`` it drew, and never calls
``plt.show()``: the notebook decides when to show it.
"""
