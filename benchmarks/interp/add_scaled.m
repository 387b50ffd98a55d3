function r = add_scaled(x, factor)
% Helper of call_overhead.m: x times factor (default 1), nargin-dependent.
    if nargin < 2
        factor = 1;
    end
    r = x * factor;
end
