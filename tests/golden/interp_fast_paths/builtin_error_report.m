% An error raised by a builtin called through the direct call site names it.
v = [3 1 2];
fprintf('%g\n', numel(v));
q = sort(v, 'sideways');
