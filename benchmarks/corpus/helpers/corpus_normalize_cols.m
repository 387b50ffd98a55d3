function Y = corpus_normalize_cols(X)
%CORPUS_NORMALIZE_COLS  Columns scaled to zero mean and unit 2-norm.
Y = X - mean(X, 1);
Y = Y ./ sqrt(sum(Y.^2, 1));
end
