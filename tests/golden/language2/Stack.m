classdef Stack < handle
    properties (Access = private)
        items = {}
    end
    properties (Dependent)
        Size
    end
    methods
        function push(obj, x)
            obj.items{end+1} = x;
        end
        function x = pop(obj)
            if isempty(obj.items)
                error('Stack:empty', 'Stack is empty.');
            end
            x = obj.items{end};
            obj.items(end) = [];
        end
        function n = get.Size(obj)
            n = numel(obj.items);
        end
        function tf = isempty(obj)
            tf = isempty(obj.items);
        end
    end
end
