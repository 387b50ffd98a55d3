classdef (Abstract) Shape
    properties
        Name = 'shape'
    end
    methods (Abstract)
        a = area(obj)
    end
    methods
        function s = describe(obj)
            s = sprintf('%s with area %.2f', obj.Name, obj.area());
        end
    end
end
