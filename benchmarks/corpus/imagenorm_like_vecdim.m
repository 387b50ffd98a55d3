% Image normalisation with 'like' and vecdim + 'native' (single).
% budget: uploads<=4 downloads<=2
% rtol: 1e-4
if ~exist('B','var'), B = 4; end
if ~exist('H','var'), H = 64; end
if ~exist('W','var'), W = 48; end
rng(3);
p = gpuArray(single(0));
imgs = rand(B, H, W, 'like', p);
mu = mean(imgs, [2 3], 'native');
sd = sqrt(mean((imgs - mu).^2, [2 3], 'native') + single(1e-6));
out = max((imgs - mu) ./ sd * single(1.5) + single(0.1), 0);
fprintf('%s %.5e\n', class(out), gather(mean(out, 'all')));
