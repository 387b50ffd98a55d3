"""Figure/axes handles, hold, set/get, isgraphics, dot assignment, errors."""

from __future__ import annotations

import numpy as np
import pytest

from matfuse.errors import MatlabError


def run(session, code: str) -> str:
    start = session.output.tell()
    session.eval(code)
    return session.output.getvalue()[start:]


def test_figure_numbers_and_current(session):
    session.eval("f1 = figure; f2 = figure; n = f2.Number; figure(7); m = get(gcf, 'Number');")
    assert session.get("n") == 2.0
    assert session.get("m") == 7.0
    session.eval("same = isequal(f1, f1); other = isequal(f1, f2); figure(f1); k = gcf().Number;")
    assert session.get("same") is True and session.get("other") is False
    assert session.get("k") == 1.0


def test_plot_returns_column_of_lines_with_color_order(session):
    session.eval("h = plot([1 2 3]', [1 4 9; 2 3 4]'); c1 = h(1).Color; c2 = get(h(2), 'Color');"
                 "cls = class(h); sz = size(h);")
    np.testing.assert_allclose(session.get("c1"), [[0, 0.4470, 0.7410]])
    np.testing.assert_allclose(session.get("c2"), [[0.85, 0.325, 0.098]])
    assert session.get("cls") == "matlab.graphics.chart.primitive.Line"
    np.testing.assert_array_equal(session.get("sz"), [[2, 1]])


def test_linespec_and_name_value(session):
    session.eval("h = plot(1:3, 'r--o', 'LineWidth', 2, 'MarkerSize', 9, 'DisplayName', 'a');"
                 "ls = h.LineStyle; mk = h.Marker; lw = h.LineWidth; ms = h.MarkerSize;"
                 "col = h.Color; dn = h.DisplayName;")
    assert session.get("ls") == "--" and session.get("mk") == "o"
    assert session.get("lw") == 2.0 and session.get("ms") == 9.0
    np.testing.assert_allclose(session.get("col"), [[1, 0, 0]])
    assert session.get("dn") == "a"


def test_marker_only_linespec_has_no_line(session):
    session.eval("h = plot(1:3, 'x'); ls = h.LineStyle;")
    assert session.get("ls") == "none"


def test_hold_keeps_lines_and_color_index(session):
    session.eval("plot(1:3); hold on; h = plot(3:-1:1); n = numel(get(gca, 'Children'));"
                 "c = h.Color; on = ishold; hold off; plot(1:2); m = numel(get(gca, 'Children'));")
    assert session.get("n") == 2.0
    np.testing.assert_allclose(session.get("c"), [[0.85, 0.325, 0.098]])
    assert session.get("on") is True
    assert session.get("m") == 1.0


def test_dot_assignment_changes_the_object(session):
    session.eval("h = plot(1:3); g = h; g.LineWidth = 4; w = h.LineWidth;"
                 "ax = gca; ax.Title.String = 'T'; t = get(get(gca, 'Title'), 'String');")
    assert session.get("w") == 4.0
    assert session.get("t") == "T"


def test_set_get_and_limits(session):
    session.eval("plot(1:10); set(gca, 'XLim', [0 20], 'YScale', 'log'); xl = xlim;"
                 "ys = get(gca, 'YScale'); ylim([1 100]); yl = get(gca, 'YLim');")
    np.testing.assert_allclose(session.get("xl"), [[0, 20]])
    assert session.get("ys") == "log"
    np.testing.assert_allclose(session.get("yl"), [[1, 100]])


def test_get_of_array_is_a_cell(session):
    session.eval("h = plot([1 2; 3 4]); w = get(h, 'LineWidth'); c = class(w); s = size(w);")
    assert session.get("c") == "cell"
    np.testing.assert_array_equal(session.get("s"), [[2, 1]])


def test_isgraphics_and_close(session):
    session.eval("f = figure; h = plot(1:3); a = isgraphics(h); b = isgraphics(f, 'figure');"
                 "close(f); c = isgraphics(h); d = ishandle(f); e = isgraphics(42);")
    assert session.get("a") is True and session.get("b") is True
    assert session.get("c") is False and session.get("d") is False
    assert session.get("e") is False


def test_close_all_and_clf(session):
    session.eval("figure; plot(1:3); figure; subplot(2,1,1); plot(1:2); clf;"
                 "n = numel(get(gcf, 'Children')); close all;")
    assert session.get("n") == 0.0
    from matfuse.graphics.root import ROOT

    assert ROOT.live_figures() == []


def test_subplot_reuses_existing_axes(session):
    session.eval("a = subplot(2,2,1); plot(1:3); b = subplot(2,2,2); c = subplot(2,2,1);"
                 "same = isequal(a, c); diff = isequal(a, b); n = numel(get(gcf,'Children'));")
    assert session.get("same") is True and session.get("diff") is False
    assert session.get("n") == 2.0


def test_tiledlayout_flow_grows(session):
    session.eval("t = tiledlayout('flow'); for k = 1:3, nexttile; plot(1:k); end; g = t.GridSize;")
    np.testing.assert_array_equal(session.get("g"), [[2, 2]])


def test_histogram_values_match_histcounts(session):
    session.eval("x = [1 2 2 3 3 3 4]; h = histogram(x); [n, e] = histcounts(x);"
                 "same = isequal(h.Values, n) && isequal(h.BinEdges, e);")
    assert session.get("same") is True


def test_legend_labels_and_display_names(session):
    session.eval("plot(1:3, 'DisplayName', 'one'); hold on; plot(2:4); lg = legend;"
                 "s = lg.String; legend('a', 'b'); s2 = get(legend, 'String');")
    session.eval("first = s{1}; second = s{2}; again = s2{1};")
    assert (session.get("first"), session.get("second")) == ("one", "data2")
    assert session.get("again") == "a"


def test_display_of_figure_handle(session):
    text = run(session, "f = figure")
    assert "Figure (1) with properties:" in text
    assert "Number: 1" in text


def test_contour_matrix_columns(session):
    session.eval("[X, Y] = meshgrid(-1:0.5:1); M = contour(X, Y, X.^2 + Y.^2, [0.5 0.5]);")
    m = session.get("M")
    assert m.shape[0] == 2 and m[0, 0] == 0.5 and m[1, 0] == m.shape[1] - 1


def test_colormap_functions(session):
    session.eval("c = parula(3); g = gray(2); colormap(jet(8)); m = colormap;")
    c = session.get("c")
    assert c.shape == (3, 3)
    np.testing.assert_allclose(session.get("g"), [[0, 0, 0], [1, 1, 1]])
    assert session.get("m").shape == (8, 3)


def test_gpuarray_data_is_gathered(session):
    session.eval("h = plot(gpuArray([1 2 3])); y = h.YData;")
    np.testing.assert_allclose(session.get("y"), [[1, 2, 3]])


@pytest.mark.parametrize("code, ident", [
    ("plot(1:3, 'LineWidth')", "MATLAB:graphics:nameValueMismatch"),
    ("h = plot(1:3); h.NoSuchProp = 1;", "MATLAB:hg:InvalidProperty"),
    ("h = plot(1:3); set(h, 'Color', 'notacolor')", "MATLAB:hg:ColorSpec_None"),
    ("plot([1 2 3], [1 2])", "MATLAB:samelen"),
    ("figure(0)", "MATLAB:figure:InvalidFigureNumber"),
    ("subplot(2,2,5)", "MATLAB:subplot:InvalidPlotIndex"),
    ("h = plot(1:3); close all; h.LineWidth = 2;", "MATLAB:class:InvalidHandle"),
    ("saveas(figure, 'out.xyz')", "MATLAB:saveas:invalidFormat"),
    ("print('-dfoo', 'x')", "MATLAB:print:InvalidDevice"),
])
def test_errors_are_matlab_style(session, code, ident):
    with pytest.raises(MatlabError) as info:
        session.eval(code)
    assert info.value.identifier == ident


def test_missing_matplotlib_names_the_extra(session, monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "matplotlib" else real(name, *a))
    with pytest.raises(MatlabError) as info:
        session.eval("plot(1:3)")
    assert info.value.identifier == "matfuse:graphics:matplotlibMissing"
    assert "matfuse[plot]" in info.value.message


def test_ticks_and_tick_labels(session):
    session.eval("plot(0:10); xticks([0 5 10]); v = xticks; xticklabels({'a','b','c'});"
                 "l = xticklabels; first = l{1}; ax = gca; ax.YTick = [0 2 4]; y = ax.YTick;")
    np.testing.assert_array_equal(session.get("v"), [[0, 5, 10]])
    assert session.get("first") == "a"
    np.testing.assert_array_equal(session.get("y"), [[0, 2, 4]])


def test_line_adds_without_hold_and_axes_makes_new_axes(session):
    session.eval("plot(1:3); line([1 3], [3 1]); n = numel(get(gca, 'Children'));"
                 "a2 = axes('Position', [0.6 0.6 0.25 0.25]); same = isequal(gca, a2);"
                 "k = numel(get(gcf, 'Children')); p = a2.Position;")
    assert session.get("n") == 2.0 and session.get("same") is True and session.get("k") == 2.0
    np.testing.assert_allclose(session.get("p"), [[0.6, 0.6, 0.25, 0.25]])


def test_delete_graphics_objects(session):
    session.eval("h = plot([1 2; 3 4]); lg = legend; delete(h(1)); n = numel(get(gca, 'Children'));"
                 "s = lg.String; f = gcf; delete(f); alive = isgraphics(f);")
    assert session.get("n") == 1.0
    assert len(session.get("s")) == 1          # a 1x1 cell comes back as a list
    assert session.get("alive") is False


def test_deleting_a_figure_closes_it_in_the_root(session):
    """``delete(f)`` goes through the root that made the figure: it is no
    longer open or current, and its number is free again."""
    session.eval("f1 = figure; f2 = figure; delete(f2); c = get(groot, 'CurrentFigure');"
                 "n = c.Number; k = numel(get(0, 'Children')); f3 = figure; m = f3.Number;")
    assert session.get("n") == 1.0 and session.get("k") == 1.0 and session.get("m") == 2.0


def test_concatenating_handles(session):
    session.eval("a = plot(1:3); hold on; b = plot(3:-1:1); h = [a b]; s = size(h);"
                 "set(h, 'LineWidth', 3); w = b.LineWidth; v = [a; b]; t = size(v);"
                 "one = [a]; same = isequal(one, a);")
    np.testing.assert_array_equal(session.get("s"), [[1, 2]])
    np.testing.assert_array_equal(session.get("t"), [[2, 1]])
    assert session.get("w") == 3.0 and session.get("same") is True


def test_tex_markup_is_rendered_and_string_kept(session):
    from matfuse.graphics.root import ROOT

    session.eval("t = title('x^2 + \\alpha_{max}'); s = t.String; xlabel('cost $5');"
                 "t.Interpreter = 'none'; i = t.Interpreter;")
    assert session.get("s") == "x^2 + \\alpha_{max}"
    axes = ROOT.gca()
    assert axes.mpl.xaxis.label.get_text() == "cost \\$5"
    assert session.get("i") == "none"
    session.eval("t.Interpreter = 'tex';")
    assert "$\\alpha$" in axes.mpl.title.get_text()


def test_matlab_warnings(capsys):
    import io

    from matfuse.vm.session import Session

    err = io.StringIO()
    session = Session(stdout=io.StringIO(), stderr=err)
    session.eval("plot(1:2); legend('a', 'b'); plot([1 2], [1i 2]);")
    text = err.getvalue()
    assert "Warning: Ignoring extra legend entries." in text
    assert "Warning: Imaginary parts of complex X and/or Y arguments ignored." in text


def test_shading_clim_and_fill(session):
    session.eval("[X, Y] = meshgrid(-2:0.5:2); s = surf(X, Y, X.*Y); shading interp;"
                 "e = s.EdgeColor; imagesc(magic(4)); clim([0 10]); c = clim; caxis auto;"
                 "c2 = caxis; h = fill([0 1 0.5], [0 0 1], 'r'); fc = h.FaceColor;")
    assert session.get("e") == "none"
    np.testing.assert_array_equal(session.get("c"), [[0, 10]])
    np.testing.assert_array_equal(session.get("c2"), [[1, 16]])
    np.testing.assert_array_equal(session.get("fc"), [[1, 0, 0]])


def test_line_data_updates_in_two_steps(session, tmp_path):
    session.eval(f"h = plot(1:3); h.XData = 1:5; h.YData = (1:5).^2; y = h.YData;"
                 f"saveas(gcf, '{tmp_path / 'a.png'}');")
    np.testing.assert_array_equal(session.get("y"), [[1, 4, 9, 16, 25]])


def test_stem(session):
    session.eval("h = stem(0:3, [1 0.5 0.25 0.125], 'filled'); c = class(h); y = h.YData;")
    assert session.get("c") == "matlab.graphics.chart.primitive.Stem"
    np.testing.assert_allclose(session.get("y"), [[1, 0.5, 0.25, 0.125]])


def test_barh_pie_quiver(session):
    session.eval("b = barh([3 5 2]); cb = class(b); p = pie([1 2 3]); n = numel(p);"
                 "[X, Y] = meshgrid(-1:1); q = quiver(X, Y, -Y, X); cq = class(q);")
    assert session.get("cb") == "matlab.graphics.chart.primitive.Bar"
    assert session.get("n") == 3.0
    assert session.get("cq") == "matlab.graphics.chart.primitive.Quiver"


def test_common_axes_and_text_properties(session):
    session.eval("plot(1:3, 'HandleVisibility', 'off'); hold on; plot(3:-1:1);"
                 "n = numel(get(gca, 'Children')); lg = legend; s = lg.String;"
                 "set(gca, 'LineWidth', 1.5, 'TickDir', 'out', 'FontName', 'DejaVu Sans',"
                 "'XMinorGrid', 'on', 'GridAlpha', 0.3, 'Color', 'none');"
                 "td = get(gca, 'TickDir'); lw = get(gca, 'LineWidth');"
                 "ax = gca; ax.ColorOrder = [1 0 0; 0 0 1]; h = plot(1:2); c = h.Color;"
                 "t = text(0.1, 0.9, 'A', 'Units', 'normalized', 'FontAngle', 'italic');"
                 "u = t.Units; fa = t.FontAngle;")
    assert session.get("n") == 1.0
    assert len(session.get("s")) == 1          # a 1x1 cell comes back as a list
    assert session.get("td") == "out" and session.get("lw") == 1.5
    np.testing.assert_array_equal(session.get("c"), [[1, 0, 0]])
    assert session.get("u") == "normalized" and session.get("fa") == "italic"


def test_groot_defaults_and_screen(session):
    from matfuse.graphics.groot import GROOT

    try:
        session.eval("set(0, 'DefaultLineLineWidth', 2, 'DefaultAxesFontSize', 14);"
                     "h = plot(1:3); w = h.LineWidth; fs = get(gca, 'FontSize');"
                     "s = get(groot, 'ScreenSize'); n = groot().CurrentFigure.Number;"
                     "set(groot, 'DefaultLineLineWidth', 'remove'); h2 = plot(1:2);"
                     "w2 = h2.LineWidth;")
        assert session.get("w") == 2.0 and session.get("fs") == 14.0
        assert session.get("s").shape == (1, 4) and session.get("n") == 1.0
        assert session.get("w2") == 0.5
    finally:
        GROOT.defaults.clear()


def test_colorbar_label(session):
    session.eval("imagesc(magic(3)); c = colorbar; c.Label.String = 'units'; a = c.Label.String;"
                 "ylabel(c, 'kelvin'); b = get(c.Label, 'String');")
    assert session.get("a") == "units" and session.get("b") == "kelvin"


def test_polarplot_then_plot_returns_to_cartesian(session):
    session.eval("th = linspace(0, 2*pi, 20); h = polarplot(th, 1 + cos(th)); c1 = class(gca);"
                 "plot(1:3); c2 = class(gca);")
    assert session.get("c1") == "matlab.graphics.axis.PolarAxes"
    assert session.get("c2") == "matlab.graphics.axis.Axes"
