% Function arguments blocks: validation and conversion of inputs, defaults
% for omitted inputs, name-value arguments gathered into a struct.
disp(scaled([1 2], 'Scale', 3))
disp(scaled(4))
disp(scaled([1 1], 'label', 'zz'))
disp(class(counted(int8(5))))
disp(counted())
try
  scaled(-1);
catch err
  disp(err.identifier)
  disp(err.message)
end
try
  scaled(1, 'Bad', 2);
catch err
  disp(err.message)
end
try
  scaled();
catch err
  disp(err.message)
end

function r = scaled(x, opts)
arguments
    x (1,:) double {mustBePositive}
    opts.Scale (1,1) double = 2
    opts.Label char = 'none'
end
r = sum(x) * opts.Scale;
fprintf('%s\n', opts.Label);
end

function n = counted(k)
arguments
    k double = 10
end
n = k;
end
