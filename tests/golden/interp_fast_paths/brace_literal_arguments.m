% f(c{1}) and f(tok{1}{1}): brace indexing by literals as a call's argument.
tok = regexp('a=12 b=3.5', '(\w)=([\d.]+)', 'tokens');
fprintf('%g %g %s\n', str2double(tok{1}{2}), str2double(tok{2}{2}), upper(tok{2}{1}));
c = {1, [2 3]; 'xy', {4}};
fprintf('%d %d %d %s\n', numel(c{1, 2}), numel(c{2}), numel(c{2, 2}), class(c{2, 2}));
s = string({'ab', 'c'});
fprintf('%d %s\n', strlength(s{1}), class(s{2}));
try
    numel(c{9});
catch err
    fprintf('%s\n', err.identifier);
end
x = 5;
try
    numel(x{1});
catch err
    fprintf('%s\n', err.identifier);
end
try
    numel(nofn{1});
catch err
    fprintf('%s\n', err.identifier);
end
d = {};
try
    numel(d{1});
catch err
    fprintf('%s\n', err.identifier);
end
numel = 3;
fprintf('%d\n', numel(1));
