% Monte-Carlo estimate of pi in BATCHES independent batches, each REPS
% rounds of SAMPLES points drawn on the GPU; every batch seeds its own
% stream (rng per iteration, as MATLAB recommends), so the estimate does
% not depend on where a batch ran.
hits = zeros(1, BATCHES);
parfor b = 1:BATCHES
    rng(b);
    count = 0;
    for r = 1:REPS
        x = rand(SAMPLES, 1, 'gpuArray');
        y = rand(SAMPLES, 1, 'gpuArray');
        count = count + gather(sum(x.^2 + y.^2 <= 1));
    end
    hits(b) = count;
end
estimate = 4 * sum(hits) / (BATCHES * REPS * SAMPLES);
