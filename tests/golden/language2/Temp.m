classdef Temp
    properties
        C = 0
    end
    methods
        function obj = Temp(c)
            obj.C = c;
        end
        function display(obj)
            fprintf('%s = %.1f C\n', inputname(1), obj.C);
        end
        function d = double(obj)
            d = obj.C;
        end
        function n = length(obj)
            n = 42;
        end
    end
end
