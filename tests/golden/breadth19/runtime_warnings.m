% Warnings raised inside builtins and operators (A\b of a singular matrix)
% follow the warning state and set lastwarn, as warning(id, msg) does.
A = [1 2; 2 4];
x = A \ [1; 2];
[msg, id] = lastwarn;
disp(id)
lastwarn('');
w = warning('off', 'MATLAB:singularMatrix');
x = A \ [1; 2];
[msg, id] = lastwarn;
disp(isempty(id))
warning(w);
warning('off', 'all');
x = inv(A);
warning('on', 'all');
warning('my:id', 'Value %d too big', 5);
[msg, id] = lastwarn;
disp(msg); disp(id)
