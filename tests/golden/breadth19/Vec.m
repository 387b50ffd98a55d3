classdef Vec
    % A 2-D vector value class: defaults, validation, operators, disp.
    properties
        X (1,1) double = 0
        Y (1,1) double {mustBeFinite} = 0
        Label char = 'v'
    end
    properties (Constant)
        Dims = 2
    end
    methods
        function obj = Vec(x, y)
            if nargin > 0
                obj.X = x;
                obj.Y = y;
            end
        end
        function r = plus(a, b)
            r = Vec(a.X + b.X, a.Y + b.Y);
        end
        function r = minus(a, b)
            r = Vec(a.X - b.X, a.Y - b.Y);
        end
        function r = mtimes(a, b)
            % scalar * vector or vector * scalar
            if isnumeric(a)
                r = Vec(a * b.X, a * b.Y);
            else
                r = Vec(a.X * b, a.Y * b);
            end
        end
        function t = eq(a, b)
            t = a.X == b.X && a.Y == b.Y;
        end
        function r = uminus(a)
            r = Vec(-a.X, -a.Y);
        end
        function n = norm(obj)
            n = sqrt(obj.X^2 + obj.Y^2);
        end
        function disp(obj)
            fprintf('  Vec(%g, %g)\n', obj.X, obj.Y);
        end
    end
    methods (Static)
        function v = unitX()
            v = Vec(1, 0);
        end
    end
end
