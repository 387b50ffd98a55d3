function x = gather(x)
% Octave has no gpuArray: gather is the identity (benchmarks run with gpu = 0).
end
