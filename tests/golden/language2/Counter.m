classdef Counter < handle
    properties
        Count = 0
    end
    properties (SetAccess = private)
        Name
    end
    methods
        function obj = Counter(name)
            if nargin > 0
                obj.Name = name;
            end
        end
        function increment(obj, k)
            if nargin < 2
                k = 1;
            end
            obj.Count = obj.Count + k;
        end
        function set.Count(obj, v)
            if v < 0
                error('Counter:negative', 'Count must be nonnegative.');
            end
            obj.Count = v;
        end
    end
end
