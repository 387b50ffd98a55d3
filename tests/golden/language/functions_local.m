fprintf('%d\n', add3(1, 2, 3));
fprintf('%d\n', add3(1, 2));
fprintf('%d\n', add3(1));
[s, p] = sum_prod([1 2 3 4]);
fprintf('%d %d\n', s, p);
fprintf('%d\n', count_args(1, 'a', {}));
show_nargout();
x = show_nargout();
[x, y] = show_nargout();
early(5);
early(-5);
function r = add3(a, b, c)
    if nargin < 3
        c = 0;
    end
    if nargin < 2
        b = 0;
    end
    r = a + b + c;
end
function [s, p] = sum_prod(v)
    s = sum(v);
    p = prod(v);
end
function n = count_args(varargin)
    n = numel(varargin);
end
function [a, b] = show_nargout()
    fprintf('nargout=%d\n', nargout);
    a = 1;
    b = 2;
end
function early(x)
    if x < 0
        disp('negative, returning early');
        return;
    end
    disp('positive');
end
