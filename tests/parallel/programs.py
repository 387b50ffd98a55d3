"""parfor programs whose output must equal the plain ``for`` loop's
(``parfor`` replaced by ``for``), on a pool and without one."""

PROGRAMS = {
    "sliced_and_sum": """
n = 23; a = zeros(1, n); s = 0; x = (1:n) * 0.1;
parfor i = 1:n
    t = sin(x(i)) * i;
    a(i) = t;
    s = s + t;
end
fprintf('%.17g\\n', a, s);
""",
    "columns_and_offset": """
A = zeros(3, 6); k = 1; B = magic(7);
parfor j = 1:6
    A(:, j) = B(1:3, j + k) * j;
end
disp(A)
""",
    "cell_output_growing": """
parfor i = 1:7
    c{i} = repmat(i, 1, mod(i, 3) + 1);
    q(i) = i^2;
end
disp(c); disp(q);
""",
    "reductions": """
p = 1; lo = Inf; hi = -Inf; cat1 = []; cat2 = zeros(0, 2); anyodd = false; u = [];
parfor i = 1:9
    p = p * i;
    lo = min(lo, 10 - i);
    hi = max(hi, i^2);
    cat1 = [cat1, i * 10];
    cat2 = [cat2; i, -i];
    anyodd = anyodd | mod(i, 2) == 1;
    u = union(u, mod(i, 4));
end
disp(p); disp(lo); disp(hi); disp(cat1); disp(cat2); disp(anyodd); disp(u);
""",
    "mixed_plus_minus_and_nested_for": """
s = 0; M = zeros(4, 5);
parfor i = 1:4
    for j = 1:5
        M(i, j) = i * 10 + j;
    end
    if mod(i, 2) == 0
        s = s + i;
    else
        s = s - 2 * i;
    end
end
disp(M); disp(s);
""",
    "function_handles_and_structs": """
f = @(v) v.^2 + 1; r = zeros(1, 5);
parfor i = 1:5
    st = struct('a', i);
    r(i) = f(st.a) + helper(i);
end
disp(r)
function y = helper(x)
    y = 1000 * x;
end
""",
    "rng_per_iteration": """
v = zeros(1, 6);
parfor i = 1:6
    rng(i);
    v(i) = rand();
end
fprintf('%.17g\\n', v);
""",
    "printing_in_body": """
parfor i = 1:1
    fprintf('inside %d\\n', i);
end
""",
}
