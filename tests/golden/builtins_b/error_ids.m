% MATLAB identifiers and messages of part-B builtin errors.
tests = {@() chol([1 2; 2 1]), @() inv(ones(2, 3)), @() conv(ones(2), [1 2]), ...
         @() sum([1 2], 0), @() fclose(99), @() cross([1 2], [3 4]), ...
         @() dot([1 2], [1 2 3]), @() det(ones(2, 3))};
for k = 1:numel(tests)
    try
        f = tests{k};
        f();
        fprintf('no error\n');
    catch err
        fprintf('%s | %s\n', err.identifier, err.message);
    end
end
