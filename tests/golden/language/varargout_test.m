[a, b, c] = spread(10);
fprintf('%d %d %d\n', a, b, c);
v = spread(1);
fprintf('%d\n', v);
fprintf('%d\n', numel(collect(1, 2, 3, 4)));
function varargout = spread(x)
    for k = 1:nargout
        varargout{k} = x * k;
    end
    if nargout == 0
        varargout{1} = x;
    end
end
function c = collect(first, varargin)
    c = [{first}, varargin];
end
