% Forms the Octave corpus checks, with MATLAB's documented behaviour:
% str2double of complex text, roots with a negligible leading coefficient,
% getfield/setfield with subscripts, erase leaving 0x0 text, strcat trimming
% char (not cell) inputs, integral along a complex path and in single,
% fminsearch(problem), issorted(..., 'rows', 'descend').
z = [str2double('i'), str2double('i*2 + 3'), str2double('1e-3 + i*.25'), str2double('Inf*i')];
fprintf('%g%+gi ', [real(z); imag(z)]); fprintf('\n');
fprintf('%g %g\n', str2double('1,222.5'), isnan(str2double('1 2')));
fprintf('%g\n', roots([1e-200, -1e200, 1]));
s(1, 2).fd(3).b(1, 4) = 5;
fprintf('%g\n', getfield(s, {1, 2}, 'fd', {3}, 'b', {1, 4}));
t = setfield(struct('f0', 1), {1, 2}, 'fd', {3}, 'b', {1, 4}, 6);
fprintf('%s %g\n', mat2str(size(t)), t(1, 2).fd(3).b(1, 4));
e = erase('aba', 'aba');
c = erase({'pppp', 'ab'}, 'p');
fprintf('%s %s %s\n', mat2str(size(e)), mat2str(size(c{1})), c{2});
r = strcat({'ab '}, 'cd ');
fprintf('[%s] [%s]\n', r{1}, strcat('ab ', 'cd '));
loop = integral(@(w) 1 ./ w, 1, 1, 'Waypoints', [1i, -1, -1i]);
fprintf('%d %.6f\n', abs(real(loop)) < 1e-10, imag(loop));
fprintf('%s %.6f\n', class(integral(@sin, single(0), 1)), integral(@sin, single(0), 1));
problem.objective = @(x) (x - 2).^2;
problem.x0 = 0;
problem.solver = 'fminsearch';
problem.options = optimset('Display', 'off');
fprintf('%.3f\n', fminsearch(problem));
fprintf('%d %d\n', issorted([4 3; 1 2], 'rows', 'descend'), issorted([1 2; 3 4], 'rows', 'descend'));
% s(mask) = '' deletes, as s(mask) = [] does.
s = 'a b c'; s(s == ' ') = ''; fprintf('[%s]\n', s);
% inline finds its argument as MATLAB documents (an isolated letter, else x).
f = inline('3*t^2');
g = inline('a*t + b', 't', 'a', 'b');
fprintf('%g %g %g\n', f(2), g(2, 3, 4), feval(inline('x + P1', 1), 1, 5));
% ode45 with a complex initial condition gives a complex solution.
[t, y] = ode45(@(t, y) 1, [0 1], 1i);
fprintf('%d %g\n', isreal(y), imag(y(end)));
% validateattributes: a size entry past ndims is 1 (NaN matches any size).
validateattributes(rand(4, 6, 7, 2), {'numeric'}, {'size', [4 6 NaN 2 NaN]});
fprintf('size ok\n');
% quadgk: value and error bound, also along a complex path.
[q, errbnd] = quadgk(@(x) exp(-x.^2), -Inf, Inf);
fprintf('%.10f %d\n', q, errbnd >= 0 && errbnd < 1e-6);
fprintf('%.6f\n', imag(quadgk(@(z) 1 ./ z, 1, 1, 'Waypoints', [1i, -1, -1i])));
