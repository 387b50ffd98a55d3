classdef SubVault < Vault
    methods
        function r = callProt(obj)
            r = obj.prot();
        end
        function r = callPriv(obj)
            r = obj.helper();
        end
    end
end
