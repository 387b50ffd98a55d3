% isfield / isempty / numel checks on structs and cells.
s.a = 1;
s.b = [];
c = {1, [], 'x'};
t = 0;
for k = 1:60000
    t = t + isfield(s, 'a') + isempty(s.b) + isempty(c{mod(k, 3) + 1}) + numel(c);
end
fprintf('%d\n', t);
