function s = corpus_sumsq(X)
%CORPUS_SUMSQ  Sum of squares of all elements.
s = sum(X(:).^2);
end
