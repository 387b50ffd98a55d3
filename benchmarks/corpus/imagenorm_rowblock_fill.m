% Fill a gpuArray image batch row-block by row-block from host chunks, then normalise.
% budget: uploads<=40 downloads<=2
% rtol: 1e-4
if ~exist('B','var'), B = 2; end
if ~exist('H','var'), H = 64; end
if ~exist('W','var'), W = 32; end
if ~exist('rb','var'), rb = 16; end
imgs = zeros(B, H, W, 'single', 'gpuArray');
for b = 1:B
    for r0 = 1:rb:H
        rows = r0:min(r0+rb-1, H);
        chunk = single(reshape(mod((1:numel(rows)*W) + b + r0, 17), 1, numel(rows), W)) / 17;
        imgs(b, rows, :) = gpuArray(chunk);
    end
end
mu = mean(imgs, [2 3]);
out = imgs - mu;
fprintf('%.6e %.6e\n', gather(sum(abs(out), 'all')), gather(mu(end)));
