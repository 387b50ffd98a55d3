classdef (Abstract) Figure2d
    methods (Abstract)
        a = area(obj)
    end
    methods
        function d = describe(obj)
            d = sprintf('%s with area %g', class(obj), obj.area());
        end
    end
end
