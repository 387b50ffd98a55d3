classdef Units
    % Constant properties and a static method; no instances needed.
    properties (Constant)
        Origin = [0 0]
        Scale = 2 * 500
    end
    methods (Static)
        function y = toMilli(x)
            y = x * Units.Scale;
        end
    end
end
