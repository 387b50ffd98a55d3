classdef Color
    properties
        R
        G
        B
    end
    methods
        function c = Color(r, g, b)
            c.R = r; c.G = g; c.B = b;
        end
    end
    enumeration
        Red (1, 0, 0)
        Green (0, 1, 0)
    end
end
