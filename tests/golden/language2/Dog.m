classdef Dog < Animal
    properties
        Breed = 'mutt'
    end
    methods
        function obj = Dog(name, breed)
            obj = obj@Animal(name);
            obj.Sound = 'Woof';
            if nargin > 1
                obj.Breed = breed;
            end
        end
        function d = describe(obj)
            d = [describe@Animal(obj) ' (' obj.Breed ')'];
        end
    end
end
