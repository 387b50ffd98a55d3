% Image normalisation with nested mean(mean(x,2),3) and double scalars.
% budget: uploads<=4 downloads<=2
% rtol: 1e-4
if ~exist('B','var'), B = 4; end
if ~exist('H','var'), H = 64; end
if ~exist('W','var'), W = 48; end
rng(5);
imgs = gpuArray(rand(B, H, W, 'single'));
mu = mean(mean(imgs, 2), 3);
v = mean(mean((imgs - mu).^2, 2), 3);
out = (imgs - mu) ./ sqrt(v + 1e-6);
fprintf('%.5e %.5e\n', gather(mean(out(:).^2)), gather(max(out(:))));
