% struct and cell bookkeeping holding gpuArrays, cellfun over them
% budget: uploads<=6 downloads<=10
% rtol: 1e-12
s = struct('name', {}, 'data', {});
for k = 1:4
    s(end+1).name = sprintf('item%d', k);
    s(end).data = gpuArray((1:100) * k);
end
c = {s.data};
m = cellfun(@(v) gather(mean(v)), c);
t = cellfun(@(v) v .^ 2, c, 'UniformOutput', false);
tot = 0;
for k = 1:numel(t), tot = tot + gather(sum(t{k})); end
fprintf('%s %g %g %g\n', s(3).name, m(2), tot, numel(s));
