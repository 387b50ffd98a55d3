classdef Square < Figure2d
    properties
        S = 1
    end
    methods
        function obj = Square(s)
            obj.S = s;
        end
        function a = area(obj)
            a = obj.S^2;
        end
    end
end
