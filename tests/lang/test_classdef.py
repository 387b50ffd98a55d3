"""Parsing of classdef files (matfuse.lang._classdef) and ``obj@Super``."""

from __future__ import annotations

import pytest

from matfuse.errors import MatlabSyntaxError
from matfuse.lang import ast
from matfuse.lang.parser import parse

CLASS = """\
classdef (Sealed) Shape < handle & Base
    % comment line
    properties
        Width (1,1) double {mustBePositive, mustBeFinite} = 1
        Tags cell
        Name = 'shape';
        Size (1,:) double
    end
    properties (SetAccess = private, Dependent)
        Area
    end
    methods
        function obj = Shape(w)
            obj = obj@Base();
            if nargin > 0
                obj.Width = w;
            end
        end
        function a = get.Area(obj)
            a = obj.Width ^ 2;
        end
        scaled = scale(obj, k)
    end
    methods (Static)
        function s = unit()
            s = Shape(1);
        end
    end
    events
        Changed
    end
    enumeration
        Small (1), Large (10)
    end
end
function helper()
end
"""


def test_class_header_and_blocks() -> None:
    program = parse(CLASS, "Shape.m")
    c = program.classdef
    assert c.name == "Shape"
    assert c.superclasses == ["handle", "Base"]
    assert "Sealed" in c.attributes
    assert [p.name for p in c.properties] == ["Width", "Tags", "Name", "Size", "Area"]
    width = c.properties[0]
    assert width.class_name == "double"
    assert len(width.size) == 2 and all(isinstance(d, ast.Number) for d in width.size)
    assert [v.name for v in width.validators] == ["mustBePositive", "mustBeFinite"]
    assert isinstance(width.default, ast.Number)
    assert c.properties[1].class_name == "cell" and c.properties[1].default is None
    assert isinstance(c.properties[3].size[1], ast.Colon)
    area = c.properties[4]
    assert set(area.attributes) == {"SetAccess", "Dependent"}
    assert [f.name for f in c.methods[0].functions] == ["Shape", "get.Area"]
    assert "Static" in c.methods[1].attributes
    assert [f.name for f in c.methods[1].functions] == ["unit"]
    assert c.events == ["Changed"]
    assert [name for name, _ in c.enumeration] == ["Small", "Large"]
    assert [f.name for f in program.functions] == ["helper"]
    assert not program.is_script


def test_superclass_constructor_call_parses_as_super_ref() -> None:
    program = parse(CLASS, "Shape.m")
    ctor = program.classdef.methods[0].functions[0]
    call = ctor.body[0].value
    assert isinstance(call, ast.Index)
    assert call.base == ast.SuperRef(call.base.span, "obj", "Base")


def test_method_bodies_keep_command_syntax() -> None:
    source = "classdef A\n methods\n  function f(obj)\n   format long\n  end\n end\nend\n"
    body = parse(source).classdef.methods[0].functions[0].body
    assert isinstance(body[0], ast.Command) and body[0].name == "format"


def test_validator_call_with_arguments() -> None:
    source = ("classdef A\n properties\n  C char {mustBeMember(C, {'r', 'g'})} = 'r'\n"
              " end\nend\n")
    prop = parse(source).classdef.properties[0]
    assert prop.class_name == "char"
    (validator,) = prop.validators
    assert isinstance(validator, ast.Index) and validator.base.name == "mustBeMember"
    assert isinstance(prop.default, ast.String)


def test_missing_class_end() -> None:
    with pytest.raises(MatlabSyntaxError, match="END is missing"):
        parse("classdef A\n properties\n  x\n end\n")


def test_open_function_blocks_are_reported() -> None:
    assert parse("function y = f(x)\ny = x;\n").open_functions
    assert not parse("function y = f(x)\ny = x;\nend\n").open_functions
    assert not parse("x = 1;\n").open_functions


def test_octave_block_ends() -> None:
    source = ("classdef Oc\n properties\n  v = 1;\n endproperties\n methods\n"
              "  function r = twice(obj)\n   r = 2 * obj.v;\n  endfunction\n endmethods\n"
              "endclassdef\n")
    c = parse(source).classdef
    assert [p.name for p in c.properties] == ["v"]
    assert [f.name for f in c.methods[0].functions] == ["twice"]
