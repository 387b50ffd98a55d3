classdef Circle < Shape
    properties
        R = 1
    end
    methods
        function obj = Circle(r)
            obj.Name = 'circle';
            if nargin > 0
                obj.R = r;
            end
        end
        function a = area(obj)
            a = pi * obj.R^2;
        end
    end
end
