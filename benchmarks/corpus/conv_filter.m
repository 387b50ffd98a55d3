% 2-D filtering: conv2 forms, filter2, separable smoothing
% budget: uploads<=6 downloads<=8
% rtol: 1e-9
img = gpuArray(reshape(sin(1:400) + cos((1:400) / 7), 20, 20));
k = [1 2 1; 2 4 2; 1 2 1] / 16;
a = conv2(img, k, 'same');
b = filter2(k, img, 'valid');
c = conv2([1 2 1] / 4, [1 2 1] / 4, img, 'same');
fprintf('%.9f %.9f %.9f\n', gather(sum(a(:))), gather(sum(b(:))), gather(sum(c(:))));
