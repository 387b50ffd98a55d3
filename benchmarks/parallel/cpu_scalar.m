% CPU-bound parfor: ITERS iterations of a scalar loop of INNER steps
% (about 0.5 s each at INNER = 450000 on the 16-core machine).
% USE_PARFOR chooses parfor or the serial for loop; set by the runner.
r = zeros(1, ITERS);
if USE_PARFOR
    parfor i = 1:ITERS
        r(i) = scalar_work(i, INNER);
    end
else
    for i = 1:ITERS
        r(i) = scalar_work(i, INNER);
    end
end
checksum = sum(r);

function acc = scalar_work(seed, inner)
    acc = 0;
    for k = 1:inner
        acc = acc + sin(k * seed) * cos(k);
    end
end
