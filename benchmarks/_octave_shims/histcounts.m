function counts = histcounts(x, edges)
% MATLAB's histcounts(x, edges) for Octave, which lacks it: histc counts values
% equal to the last edge in an extra bin; histcounts puts them in the last bin.
    counts = histc(x(:).', edges);
    counts(end - 1) = counts(end - 1) + counts(end);
    counts(end) = [];
end
