classdef Point
    % A 2-D point (value class)
    properties
        X (1,1) double = 0
        Y double {mustBeFinite} = 0
        Label = 'pt';
    end
    properties (Dependent)
        Norm
    end
    methods
        function obj = Point(x, y)
            if nargin > 0
                obj.X = x;
                obj.Y = y;
            end
        end
        function r = plus(a, b)
            r = Point(a.X + b.X, a.Y + b.Y);
        end
        function n = get.Norm(obj)
            n = sqrt(obj.X^2 + obj.Y^2);
        end
        function obj = scale(obj, k)
            obj.X = obj.X * k;
            obj.Y = obj.Y * k;
        end
    end
    methods (Static)
        function p = unit()
            p = Point(1, 0);
        end
    end
end
function helper()
% a local function of the class file
end
