classdef Money
    properties
        Amount = 0
    end
    methods
        function obj = Money(a)
            obj.Amount = a;
        end
        function r = plus(a, b)
            r = Money(a.Amount + b.Amount);
        end
        function r = minus(a, b)
            r = Money(a.Amount - b.Amount);
        end
        function r = times(a, k)
            r = Money(a.Amount * k);
        end
        function r = mtimes(a, k)
            r = Money(a.Amount * k);
        end
        function t = eq(a, b)
            t = a.Amount == b.Amount;
        end
        function t = lt(a, b)
            t = a.Amount < b.Amount;
        end
        function r = uminus(a)
            r = Money(-a.Amount);
        end
        function disp(obj)
            fprintf('  $%.2f\n', obj.Amount);
        end
    end
end
