classdef Vault < handle
    properties
        V = 1
    end
    methods
        function r = useSecret(obj)
            r = obj.helper() + helper(obj) + obj.prot();
            f = @() obj.helper();
            r = r + f();
        end
    end
    methods (Access = private)
        function r = helper(obj)
            r = obj.V;
        end
    end
    methods (Access = protected)
        function r = prot(obj)
            r = 10;
        end
    end
end
