classdef Account < handle
    % A handle class: copies share state.
    properties
        Owner = ''
        Balance = 0
    end
    properties (SetAccess = private)
        History = []
    end
    methods
        function obj = Account(owner, balance)
            obj.Owner = owner;
            obj.Balance = balance;
        end
        function deposit(obj, amount)
            obj.Balance = obj.Balance + amount;
            obj.History(end + 1) = amount;
        end
        function s = describe(obj)
            s = sprintf('%s: %g', obj.Owner, obj.Balance);
        end
    end
end
