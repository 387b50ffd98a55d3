classdef Rect < Shape
    properties
        W = 1
        H = 1
    end
    methods
        function obj = Rect(w, h)
            obj.Name = 'rect';
            obj.W = w; obj.H = h;
        end
        function a = area(obj)
            a = obj.W * obj.H;
        end
    end
end
