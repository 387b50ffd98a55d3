classdef Vec2
    properties
        X = 0
        Y = 0
    end
    methods
        function obj = Vec2(x, y)
            obj.X = x; obj.Y = y;
        end
        n = norm2(obj)
    end
    methods (Static)
        v = zero()
    end
end
