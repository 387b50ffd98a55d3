"""Rendered figures compared with committed baselines
(``baseline_images/NAME.png``) by matplotlib's image comparison.

Regenerate after an intended change of look (then inspect the images)::

    PYTHONPATH=src python3 -m tests.graphics.test_image_baselines
"""

from __future__ import annotations

import io
import shutil
import sys
from pathlib import Path

import pytest

BASELINES = Path(__file__).parent / "baseline_images"
TOLERANCE = 2.0      # RMS difference (0-255 scale) allowed, for font rasteriser drift

PROGRAMS = {
    "line_plot": """
        x = linspace(0, 2*pi, 40);
        plot(x, sin(x), 'r--o', 'LineWidth', 1.5, 'DisplayName', 'sin');
        hold on
        plot(x, [cos(x); 0.5*sin(2*x)]);
        hold off
        xlabel('x'); ylabel('y'); title('Lines'); legend('Location', 'southwest');
        grid on
    """,
    "charts": """
        subplot(2,3,1); bar([3 5 2; 1 2 3]); title('bar');
        subplot(2,3,2); histogram([1 2 2 3 3 3 4 4 5 1.5 2.5 3.5]); title('histogram');
        subplot(2,3,3); scatter(1:8, [3 1 4 1 5 9 2 6], 'filled'); title('scatter');
        subplot(2,3,4); area([1 2 3; 2 2 1]'); title('area');
        subplot(2,3,5); stairs([1 3 2 4 3]); hold on; errorbar(1:5, [1 2 3 2 1], 0.3*ones(1,5));
        title('stairs/errorbar');
        subplot(2,3,6); semilogy(1:10, exp(1:10), 'k-s'); title('semilogy');
    """,
    "surfaces": """
        [X, Y] = meshgrid(-2:0.25:2);
        Z = X .* exp(-X.^2 - Y.^2);
        tiledlayout(2, 2);
        nexttile; surf(X, Y, Z); title('surf');
        nexttile; mesh(X, Y, Z); title('mesh');
        nexttile; contour(X, Y, Z, 8); title('contour');
        nexttile; imagesc(Z); colorbar; title('imagesc');
    """,
}


def render(name: str, path: Path) -> None:
    from matfuse.vm.session import Session

    session = Session(stdout=io.StringIO())
    session.eval("close all; figure;")
    session.eval(PROGRAMS[name])
    session.eval(f"saveas(gcf, '{path}'); close all;")


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_figure_matches_baseline(name: str, tmp_path: Path) -> None:
    from matplotlib.testing.compare import compare_images

    actual = tmp_path / f"{name}.png"
    render(name, actual)
    result = compare_images(str(BASELINES / f"{name}.png"), str(actual), tol=TOLERANCE)
    assert result is None, result


def test_pdf_and_svg_are_written(tmp_path: Path) -> None:
    from matfuse.vm.session import Session

    session = Session(stdout=io.StringIO())
    session.eval("plot(1:3);")
    session.eval(f"print('-dpdf', '{tmp_path / 'a'}'); exportgraphics(gca, '{tmp_path / 'b.svg'}');"
                 f"print -dpng -r50 {tmp_path / 'c.png'}")
    assert (tmp_path / "a.pdf").read_bytes().startswith(b"%PDF")
    assert b"<svg" in (tmp_path / "b.svg").read_bytes()[:400]
    assert (tmp_path / "c.png").read_bytes().startswith(b"\x89PNG")
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".matfuse-")] == []


def regenerate() -> None:
    BASELINES.mkdir(exist_ok=True)
    for name in sorted(PROGRAMS):
        target = BASELINES / f"{name}.png"
        render(name, target)
        print(f"wrote {target}")
    shutil.rmtree(BASELINES / "__pycache__", ignore_errors=True)


if __name__ == "__main__":
    regenerate()
    sys.exit(0)
