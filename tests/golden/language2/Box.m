classdef Box < handle
    properties
        Data = []
        Meta = struct('tag', 'none')
        Child
    end
    properties (Access = private)
        Secret = 42
    end
    methods
        function v = peek(obj)
            v = obj.Secret;
        end
        function n = count(obj)
            n = numel(obj.Data);
        end
    end
end
