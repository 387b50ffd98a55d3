% try/catch in a loop, one iteration in ten throwing.
caught = 0;
t = 0;
for k = 1:90000
    try
        if mod(k, 10) == 0
            error('bench:odd', 'bad value %d', k);
        end
        t = t + k;
    catch err
        caught = caught + strcmp(err.identifier, 'bench:odd');
    end
end
fprintf('%d %d\n', caught, t);
