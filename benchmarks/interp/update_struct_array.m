% Updating a field of every element of an existing struct array.
s = struct('v', num2cell(1:100000));
for k = 1:numel(s)
    s(k).v = s(k).v * 2;
end
fprintf('%d\n', s(end).v + s(1).v);
