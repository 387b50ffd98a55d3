classdef Savings < Account
    % Inherits Account; adds a rate and overrides describe.
    properties
        Rate = 0.05
    end
    methods
        function obj = Savings(owner, balance, rate)
            obj@Account(owner, balance);
            if nargin > 2
                obj.Rate = rate;
            end
        end
        function addInterest(obj)
            deposit(obj, obj.Balance * obj.Rate);
        end
        function s = describe(obj)
            s = [describe@Account(obj), sprintf(' at %g%%', 100 * obj.Rate)];
        end
    end
end
