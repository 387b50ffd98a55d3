% sort of small double vectors: one and two outputs, both directions.
cases = {[3 1 2 1 3], [3; 1; 2; 1], [0 -0 1 -1 0], [2 NaN 1 NaN -Inf Inf], [5], [], zeros(1, 0), ...
         [1 1 1], [-2 7 -2 7]};
for k = 1:numel(cases)
    v = cases{k};
    a = sort(v);
    d = sort(v, 'descend');
    [a2, ia] = sort(v);
    [d2, id] = sort(v, 'descend');
    fprintf('%s | %s | %s %s | %s %s | %s %s\n', mat2str(size(a)), mat2str(a), mat2str(d), ...
            mat2str(1 ./ d), mat2str(a2), mat2str(ia), mat2str(d2), mat2str(id));
end
v = [3 1 2];
w = v;
s = sort(w);
s(1) = 100;
fprintf('%s %s %s\n', mat2str(v), mat2str(w), mat2str(s));
fprintf('%s\n', mat2str(1 ./ sort([0 -0])));
fprintf('%s\n', mat2str(sort([3 1 2], 'ascend')));
fprintf('%s\n', mat2str(sort([3 1 2], 'DESCEND')));
try
    sort([3 1 2], 'sideways');
catch err
    fprintf('%s\n', err.identifier);
end
