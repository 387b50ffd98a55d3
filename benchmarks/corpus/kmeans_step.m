% One k-means assignment/update step with implicit expansion and min with index.
% budget: uploads<=6 downloads<=8
% Downloads corrected from 4 (below the ideal): each X(lab == k, :) has a data-dependent
% number of rows, which the host must know (one count read back per k: 5), accumarray(lab, 1)
% is as long as max(lab) (one read back), and the script gathers two results: 5 + 1 + 2 = 8.
% rtol: 1e-10
X = gpuArray([cos(1:500)' sin(2*(1:500))']);
Cn = X(1:5, :);
D = sum(X.^2, 2) + sum(Cn.^2, 2)' - 2 * X * Cn';
[~, lab] = min(D, [], 2);
for k = 1:5
    Cn(k, :) = mean(X(lab == k, :), 1);
end
fprintf('%.10e\n', gather(sum(Cn(:))));
fprintf('%d ', gather(accumarray(lab, 1))'); fprintf('\n');
