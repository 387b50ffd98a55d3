"""The IPython extension: ``%load_ext matfuse``, then

    %matlab x = magic(4);            one line in the MATLAB workspace
    %%matlab -i a -o b               a cell: Python's ``a`` goes in first,
    b = a * 2;                       MATLAB's ``b`` comes back to Python after

One MATLAB session per IPython shell. Errors print MATLAB-style (no Python
traceback); figures made by the code are shown inline.
"""

from __future__ import annotations

import sys
from typing import Any

from IPython.core.magic import Magics, cell_magic, line_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring

from matfuse.errors import MatlabError


@magics_class
class MatlabMagics(Magics):
    def __init__(self, shell: Any):
        super().__init__(shell)
        from matfuse.vm.session import Session

        self.session = Session()

    def _run(self, code: str) -> bool:
        from matfuse.jupyter.figures import changed_figure_pngs

        self.session.interp.out = sys.stdout    # IPython's stream for this cell
        ok = True
        try:
            self.session.eval(code)
        except MatlabError as err:
            self.session.interp.last_error = err
            sys.stdout.flush()
            sys.stderr.write(err.report().rstrip("\n") + "\n")
            ok = False
        finally:
            sys.stdout.flush()
            pngs = changed_figure_pngs()
            if pngs:
                from IPython.display import Image, display

                for png in pngs:
                    display(Image(data=png, format="png"))
        return ok

    @line_magic
    def matlab(self, line: str) -> None:
        """Run one line of MATLAB code in the extension's workspace."""
        self._run(line)

    @magic_arguments()
    @argument("-i", "--input", action="append", default=[], metavar="NAME",
              help="Python variable(s) copied into MATLAB first (comma list or repeated)")
    @argument("-o", "--output", action="append", default=[], metavar="NAME",
              help="MATLAB variable(s) copied back to Python after the cell")
    @cell_magic("matlab")
    def matlab_cell(self, line: str, cell: str) -> None:
        """Run a MATLAB cell; ``-i`` and ``-o`` move variables in and out."""
        args = parse_argstring(self.matlab_cell, line)
        for name in _names(args.input):
            if name not in self.shell.user_ns:
                sys.stderr.write(f"%%matlab: no Python variable named '{name}'\n")
                return
            try:
                self.session.set(name, self.shell.user_ns[name])
            except (MatlabError, TypeError) as err:
                sys.stderr.write(f"%%matlab: cannot pass '{name}' to MATLAB: {err}\n")
                return
        if not self._run(cell):
            return
        for name in _names(args.output):
            try:
                self.shell.user_ns[name] = self.session.get(name)
            except MatlabError as err:
                sys.stderr.write(err.report().rstrip("\n") + "\n")


def _names(groups: list[str]) -> list[str]:
    return [n.strip() for group in groups for n in group.split(",") if n.strip()]


def load_ipython_extension(ipython: Any) -> None:
    ipython.register_magics(MatlabMagics)
