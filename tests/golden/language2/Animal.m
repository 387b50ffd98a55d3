classdef Animal
    properties
        Name = ''
        Sound = '...'
    end
    methods
        function obj = Animal(name)
            if nargin > 0
                obj.Name = name;
            end
        end
        function s = speak(obj)
            s = sprintf('%s says %s', obj.Name, obj.Sound);
        end
        function d = describe(obj)
            d = ['Animal ' obj.Name];
        end
    end
end
