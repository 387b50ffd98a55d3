% unique, ismember, histcounts, accumarray on device data
% budget: uploads<=6 downloads<=12
% rtol: 0
x = gpuArray(mod((1:500) * 7, 23));
[u, ia, ic] = unique(x);
[tf, loc] = ismember(gpuArray([3 5 100 22]), x);
h = histcounts(x, 0:4:24);
a = accumarray(ic(:), 1);
fprintf('%g ', gather(u(1:5)), gather(ia(1:5))); fprintf('\n');
fprintf('%g ', gather(tf), gather(loc)); fprintf('\n');
fprintf('%g ', gather(h)); fprintf('\n');
fprintf('%g ', gather(a(1:6))); fprintf('\n');
