classdef Thermo
    properties
        Celsius = 0
    end
    properties (Dependent)
        Fahrenheit
    end
    methods
        function f = get.Fahrenheit(obj)
            f = obj.Celsius * 9/5 + 32;
        end
        function obj = set.Celsius(obj, v)
            if v < -273.15
                error('Thermo:tooCold', 'Below absolute zero.');
            end
            obj.Celsius = v;
        end
        function r = twice(obj)
            r = 2 * obj.Celsius;
        end
    end
    methods (Access = private)
        function secret(obj)
            disp('secret');
        end
    end
end
