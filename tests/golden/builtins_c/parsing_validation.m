% inputParser, validateattributes, sscanf, textscan, compose, corr, addCause, gallery.
r = parse_opts(1);
fprintf('%d %d %s %g\n', r.x, r.n, r.Mode, r.Scale);
r = parse_opts(2, 5, 'mode', 'slow');
fprintf('%d %d %s %g\n', r.x, r.n, r.Mode, r.Scale);
s.Scale = 4;
r = parse_opts(3, s);
fprintf('%d %d %s %g\n', r.x, r.n, r.Mode, r.Scale);
try
    parse_opts('a');
catch err
    fprintf('%s\n%s\n', err.identifier, err.message);
end
try
    parse_opts(1, 'Colour', 2);
catch err
    fprintf('%s\n', err.identifier);
end
validateattributes(5, {'numeric'}, {'positive', 'scalar', 'integer'});
try
    validateattributes(-1, {'numeric'}, {'positive'});
catch err
    fprintf('%s: %s\n', err.identifier, err.message);
end
try
    validateattributes('a', {'double', 'single'}, {});
catch err
    fprintf('%s\n', err.identifier);
end
fprintf('%g ', sscanf('3 4 5', '%d')); fprintf('\n');
fprintf('%g ', sscanf('x=12 y=7', 'x=%d y=%d')); fprintf('\n');
fprintf('%s\n', sscanf('hello world', '%s'));
fprintf('%g ', sscanf('1 2 3 4 5 6', '%d', [2 3])); fprintf('\n');
[v, n, msg, nx] = sscanf('10 20 abc', '%d');
fprintf('%g %g %d\n', n, nx, isempty(msg));
C = textscan(sprintf('a,1\nb,2\n'), '%s %f', 'Delimiter', ',');
fprintf('%s %s %g %g\n', C{1}{:}, C{2});
fprintf('%s|', compose("%d", [1 2 3])); fprintf('\n');
fprintf('%s|', compose("%d and %d", [1 2; 3 4])); fprintf('\n');
fprintf('%.4f\n', corr([1 2 3 4 5]', [2 4 5 4 5]'));
fprintf('%.4f\n', corr([1 2 3 4 5]', [2 4 5 4 5]', 'Type', 'Spearman'));
e = addCause(MException('top:level', 'outer'), MException('low:level', 'inner'));
fprintf('%s %d %s\n', e.identifier, numel(e.cause), e.cause{1}.message);
fprintf('%g ', gallery('minij', 3)); fprintf('\n');
fprintf('%g ', gallery('tridiag', 3)); fprintf('\n');
fprintf('%d %d\n', iscomplex(complex(1, 0)), iscomplex(1));
fprintf('%s\n', strrep('abc 2 def 22 ghi 222 jkl 2222', '22', '*'));
fprintf('%s\n', regexprep('World', '^', 'Hello '));
